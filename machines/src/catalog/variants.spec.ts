import { variantLabel, variantLineName } from './variants.js';

describe('variation names (rules "Everything the shop sells")', () => {
  it('names a variation line "{product} – {option values}"', () => {
    expect(variantLineName('Sommer-Afterwork', [{ name: 'Ticket', option: 'VIP' }])).toBe(
      'Sommer-Afterwork – VIP',
    );
  });

  it('joins several options and skips empty ones', () => {
    const attributes = [
      { name: 'Größe', option: 'L' },
      { name: 'Farbe', option: ' ' },
      { name: 'Schnitt', option: 'tailliert' },
    ];
    expect(variantLabel(attributes)).toBe('L, tailliert');
    expect(variantLineName('AWHH T-Shirt', attributes)).toBe('AWHH T-Shirt – L, tailliert');
  });

  it('keeps the product name alone when a variation has no option values', () => {
    expect(variantLineName('AWHH T-Shirt', [])).toBe('AWHH T-Shirt');
  });
});
