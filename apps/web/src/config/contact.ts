/**
 * Every contact fact the footer, the contact page and the WeChat widget show (docs/product/overview.md#footer-and-contact), in one
 * file. A deployment edits this file (values below are the project's defaults; `.example`
 * addresses are placeholders to replace). Labels are translated; the facts themselves are not.
 */
export interface SiblingProduct {
  /** i18n key (`<namespace>:<key>`). */
  nameKey: 'common:products.database' | 'common:products.browser' | 'common:products.cloud';
  url: string;
}

export const CONTACT = {
  /** Shown in the China region (countryIsoCode CN). */
  cn: {
    phone: '+86 400 000 0000',
    email: 'support-cn@cellcloud.example',
    /** Address lines are shown as written. */
    address: '中国 北京市 海淀区 中关村大街 1 号',
    /** QR codes (images under apps/web/public) with their label i18n keys. */
    qrCodes: [{ labelKey: 'resource:contact.qrWechat', src: '/qr/wechat.svg' }] as const,
    wechatId: 'CellCloudHelp',
    /** ICP record number shown in the footer for Chinese users, linking to the registry. */
    icpRecord: '京ICP备00000000号-1',
    icpUrl: 'https://beian.miit.gov.cn/',
  },
  /** Shown everywhere else. */
  global: {
    phoneGermany: '+49 30 0000 0000',
    phoneApac: '+65 0000 0000',
    email: 'support@cellcloud.example',
    social: [
      { name: 'GitHub', url: 'https://github.com/cellcloud' },
      { name: 'X', url: 'https://x.com/cellcloud' },
      { name: 'LinkedIn', url: 'https://www.linkedin.com/company/cellcloud' },
    ],
    copyrightHolder: 'CellCloud contributors',
  },
  legal: {
    terms: '/legal/terms.html',
    privacy: '/legal/privacy.html',
  },
  siblings: [
    { nameKey: 'common:products.database', url: 'https://db.cellcloud.example' },
    { nameKey: 'common:products.browser', url: 'https://browser.cellcloud.example' },
    { nameKey: 'common:products.cloud', url: '/' },
  ] satisfies SiblingProduct[],
} as const;
