export interface DemoPost {
  id: number;
  slug: string;
  title: string;
  publishedDaysAgo: number;
  author: string;
  image: string;
  imageAlt: string;
  excerpt: string;
  content: string;
}

export const DEMO_POSTS: DemoPost[] = [
  {
    id: 301,
    slug: 'netzwerken-ohne-krawatte',
    title: 'Netzwerken ohne Krawatte: Was ein Afterwork in Hamburg ausmacht',
    publishedDaysAgo: 5,
    author: 'Lena Hoffmann',
    image: '/media/demo/blog-netzwerken.svg',
    imageAlt: 'Zwei Gläser stoßen vor der abendlichen Hamburger Skyline an',
    excerpt:
      '<p>Kein Namensschild, keine Pitch-Runde, kein Pflichtprogramm: Warum die besten Kontakte oft beim zweiten Drink entstehen.</p>',
    content: `<p>Wer in Hamburg arbeitet, kennt das: Man sitzt den ganzen Tag mit denselben Menschen im Büro oder im Homeoffice, und die Stadt voller spannender Leute bleibt irgendwie draußen. Genau dafür haben wir After Work Hamburg gegründet.</p>
<h2>Kein Konferenz-Feeling</h2>
<p>Klassische Networking-Events fühlen sich oft an wie ein Vorstellungsgespräch im Stehen. Bei uns gibt es keine Namensschilder mit Jobtitel und keine Pitch-Runden. Du kommst nach Feierabend, holst dir etwas zu trinken und kommst ins Gespräch, über die Musik, die Location oder den letzten Hafengeburtstag.</p>
<h2>Die richtigen Orte</h2>
<p>Eine Dachterrasse in der Altstadt, ein Speicher in der Speicherstadt, eine Strandbar an der Elbe: Unsere Locations sind so gewählt, dass man sich gern länger aufhält. Gute Akustik ist uns dabei wichtiger als große Namen. Wer sich anschreien muss, um verstanden zu werden, knüpft keine Kontakte.</p>
<h2>Wer kommt?</h2>
<p>Unsere Gäste sind zwischen Mitte zwanzig und Ende fünfzig, arbeiten in Agenturen, Reedereien, Kanzleien, Start-ups oder im öffentlichen Dienst. Viele sind neu in der Stadt, andere wohnen seit Jahrzehnten hier und wollen einfach mal raus aus der eigenen Blase.</p>
<blockquote><p>„Ich bin allein gekommen und mit drei Verabredungen zum Mittagessen nach Hause gegangen.“ Jana, Gast beim Afterwork im Alsterpavillon</p></blockquote>
<p>Das nächste Event findest du immer oben unter <a href="/next">Nächstes Event</a>.</p>`,
  },
  {
    id: 302,
    slug: 'fuenf-tipps-erstes-afterwork',
    title: 'Fünf Tipps für dein erstes Afterwork-Event',
    publishedDaysAgo: 19,
    author: 'Malte Brandt',
    image: '/media/demo/blog-tipps.svg',
    imageAlt: 'Notizbuch, Visitenkarten und ein Cocktailglas auf einem Bartresen',
    excerpt:
      '<p>Allein hingehen, ohne Smalltalk-Panik: Mit diesen fünf Tipps wird dein erstes Afterwork entspannt.</p>',
    content: `<p>Du hast ein Ticket gekauft, und jetzt meldet sich die kleine Stimme im Kopf: Was, wenn ich da niemanden kenne? Keine Sorge, so geht es den meisten. Hier sind fünf Tipps aus über vierzig Afterwork-Abenden.</p>
<ol>
<li><strong>Komm früh.</strong> In der ersten halben Stunde sind alle noch offen für neue Gespräche, die Gruppen haben sich noch nicht gefunden.</li>
<li><strong>Stell dich an die Bar.</strong> Die Schlange am Tresen ist der einfachste Ort für einen ersten Satz. „Was trinkst du da?“ funktioniert immer.</li>
<li><strong>Frag nicht zuerst nach dem Job.</strong> Frag lieber, wie jemand von der Veranstaltung erfahren hat oder in welchem Stadtteil er wohnt. Der Job kommt von allein.</li>
<li><strong>Mach mit beim Speed-Networking.</strong> Zehn Minuten, drei Gesprächspartner, danach kennst du genug Leute für den Rest des Abends.</li>
<li><strong>Verabrede dich konkret.</strong> Statt „Wir sollten mal …“ lieber gleich die Nummer tauschen und einen Termin fürs Mittagessen ausmachen.</li>
</ol>
<p>Und falls es doch mal hakt: Unser Team trägt goldene Anstecker. Sprich uns an, wir stellen dich gern jemandem vor.</p>`,
  },
  {
    id: 303,
    slug: 'rueckblick-afterwork-alsterpavillon',
    title: 'Rückblick: Unser Afterwork im Alsterpavillon',
    publishedDaysAgo: 16,
    author: 'Lena Hoffmann',
    image: '/media/demo/event-alsterpavillon.svg',
    imageAlt: 'Pavillon am Wasser mit Alsterdampfer und Bäumen am Ufer',
    excerpt:
      '<p>Über 150 Gäste, ein Sonnenuntergang wie bestellt und ein DJ, der niemanden sitzen ließ: So war der Abend an der Binnenalster.</p>',
    content: `<p>Was für ein Abend! Schon um kurz nach sechs standen die ersten Gäste vor dem Pavillon, und als die Sonne hinter den Alsterarkaden verschwand, war die Terrasse voll.</p>
<h2>Die Zahlen</h2>
<ul>
<li>152 Gäste, davon fast die Hälfte zum ersten Mal bei AWHH</li>
<li>312 Alster-Spritz und 140 alkoholfreie Hausmischungen</li>
<li>ein verlorener Regenschirm, der noch auf seinen Besitzer wartet</li>
</ul>
<h2>Was wir mitnehmen</h2>
<p>Viele von euch haben sich mehr Sitzplätze gewünscht, das nehmen wir für die nächsten Events mit. Auch das Speed-Networking kam so gut an, dass wir es künftig bei jedem Afterwork anbieten.</p>
<p>Danke an das Team des Pavillons, an DJ Marlene Kraus und an euch alle. Wir sehen uns beim nächsten Mal!</p>`,
  },
  {
    id: 304,
    slug: 'wie-wir-locations-auswaehlen',
    title: 'Hinter den Kulissen: Wie wir unsere Locations auswählen',
    publishedDaysAgo: 34,
    author: 'Malte Brandt',
    image: '/media/demo/blog-locations.svg',
    imageAlt: 'Stadtplan von Hamburg mit goldenen Markierungen an Elbe und Alster',
    excerpt:
      '<p>Von der Besichtigung bis zur Probebeschallung: Warum wir für jede Location drei Anläufe brauchen.</p>',
    content: `<p>„Wie findet ihr eigentlich immer diese Orte?“ Die Frage hören wir bei fast jedem Event. Die ehrliche Antwort: mit viel Laufarbeit.</p>
<h2>Unsere Checkliste</h2>
<ul>
<li><strong>Erreichbarkeit:</strong> höchstens zehn Minuten zu Fuß von einer U- oder S-Bahn-Station oder einem Fähranleger.</li>
<li><strong>Akustik:</strong> Wir testen jede Location mit Musik in Gesprächslautstärke. Wenn man sich nicht mehr unterhalten kann, ist sie raus.</li>
<li><strong>Plan B:</strong> Jede Außenlocation braucht einen überdachten Bereich, in den alle Gäste passen. Hamburg ist Hamburg.</li>
<li><strong>Barrierefreiheit:</strong> Stufenloser Zugang und eine barrierefreie Toilette sind für uns Pflicht.</li>
</ul>
<h2>Drei Besuche pro Ort</h2>
<p>Wir besichtigen jede Location dreimal: einmal tagsüber mit dem Betreiber, einmal abends als ganz normale Gäste und einmal zur Technikprobe. Erst dann steht ein Event im Kalender.</p>
<p>Du kennst einen Ort, der perfekt zu uns passt? Schreib uns über das <a href="/contact">Kontaktformular</a>.</p>`,
  },
];
