import { useTranslation } from 'react-i18next';
import { CONTACT } from '../config/contact';
import { useIsChina } from './useIsChina';

/** Footer (docs/product/overview.md#footer-and-contact): legal links, sibling products, support contacts, ICP record or copyright. */
export function Footer() {
  const { t } = useTranslation('common');
  const cn = useIsChina();
  const year = new Date().getFullYear();
  return (
    <footer className="cc-footer" data-testid="footer">
      <div className="cc-footer-row">
        <nav className="cc-footer-group">
          <a href={CONTACT.legal.terms}>{t('footer.terms')}</a>
          <a href={CONTACT.legal.privacy}>{t('footer.privacy')}</a>
          {CONTACT.siblings.map((p) => (
            <a key={p.nameKey} href={p.url}>
              {t(p.nameKey)}
            </a>
          ))}
        </nav>
        <div className="cc-footer-group">
          <span>
            {t('footer.support')}: {cn ? `${CONTACT.cn.phone} · ${CONTACT.cn.email}` : CONTACT.global.email}
          </span>
          {cn ? (
            <a href={CONTACT.cn.icpUrl} target="_blank" rel="noreferrer">
              {CONTACT.cn.icpRecord}
            </a>
          ) : (
            <span>{t('footer.copyright', { year, holder: CONTACT.global.copyrightHolder })}</span>
          )}
        </div>
      </div>
    </footer>
  );
}
