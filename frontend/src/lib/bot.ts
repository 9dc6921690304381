// SPEC §2: crawlers get no error page. Common crawler and preview-fetcher signatures.
const BOT_PATTERN =
  /bot\b|crawl|spider|slurp|bingpreview|mediapartners|facebookexternalhit|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegram|discord|skype|headlesschrome.*lighthouse|google-inspectiontool|yandex|baiduspider|duckduckgo|ia_archiver|semrush|ahrefs|petalbot|applebot|bytespider|gptbot|ccbot/i;

export function isBotUserAgent(userAgent: string | undefined | null): boolean {
  return typeof userAgent === 'string' && BOT_PATTERN.test(userAgent);
}

export function isBotVisitor(): boolean {
  return typeof navigator !== 'undefined' && isBotUserAgent(navigator.userAgent);
}
