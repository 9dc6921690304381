import { couponTerms } from '@awhh/machines';
import type { CatalogCoupon } from '../catalog.port.js';

/** One coupon per rule of rules "Coupons", so every answer can be tried in the demo. */
export function demoCoupons(now: Date): CatalogCoupon[] {
  const year = now.getUTCFullYear();
  const coupons: Parameters<typeof couponTerms>[0][] = [
    {
      code: 'AFTERWORK10',
      discountType: 'percent',
      amount: 10,
      expiresAt: null,
      usageLimit: null,
      usageCount: 37,
      minimumAmount: null,
    },
    {
      code: 'WILLKOMMEN5',
      discountType: 'fixed_cart',
      amount: 5,
      expiresAt: `${year + 1}-12-31T00:00:00`,
      usageLimit: 500,
      usageCount: 112,
      minimumAmount: null,
    },
    {
      code: 'FREIKARTE',
      discountType: 'percent',
      amount: 100,
      expiresAt: null,
      usageLimit: 20,
      usageCount: 3,
      minimumAmount: null,
    },
    {
      code: 'SOMMER2024',
      discountType: 'percent',
      amount: 15,
      expiresAt: '2024-09-30T00:00:00',
      usageLimit: null,
      usageCount: 84,
      minimumAmount: null,
    },
    {
      code: 'TEAM20',
      discountType: 'percent',
      amount: 20,
      expiresAt: null,
      usageLimit: null,
      usageCount: 5,
      minimumAmount: 100,
    },
    {
      code: 'FRUEHBUCHER',
      discountType: 'fixed_cart',
      amount: 10,
      expiresAt: null,
      usageLimit: 50,
      usageCount: 50,
      minimumAmount: null,
    },
    {
      // rules "Coupons": only the VIP tier of the harbour cruise (a product restriction).
      code: 'NURVIP',
      discountType: 'percent',
      amount: 20,
      expiresAt: null,
      usageLimit: null,
      usageCount: 0,
      minimumAmount: null,
      productIds: [1093],
    },
    {
      // rules "Coupons": only for a company's addresses (an e-mail restriction with a
      // wildcard), so /checkout asks for the buyer's address.
      code: 'FIRMA15',
      discountType: 'percent',
      amount: 15,
      expiresAt: null,
      usageLimit: null,
      usageCount: 0,
      minimumAmount: null,
      emailRestrictions: ['*@firma.example'],
    },
  ];
  return coupons.map(couponTerms);
}
