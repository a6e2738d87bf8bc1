import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CONTACT } from '../config/contact';
import { useIsChina } from './useIsChina';

/** Footer (SPEC §1): legal links, sibling products, support contacts, ICP record or copyright. */
export function Footer() {
  const { t } = useTranslation('common');
  const cn = useIsChina();
  const year = new Date().getFullYear();
  return (
    <footer className="cc-footer" data-testid="footer">
      <Space wrap size={[24, 8]} style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space wrap size={16}>
          <a href={CONTACT.legal.terms}>{t('footer.terms')}</a>
          <a href={CONTACT.legal.privacy}>{t('footer.privacy')}</a>
          {CONTACT.siblings.map((p) => (
            <a key={p.nameKey} href={p.url}>
              {t(p.nameKey)}
            </a>
          ))}
        </Space>
        <Space wrap size={16}>
          <span>
            {t('footer.support')}: {cn ? `${CONTACT.cn.phone} · ${CONTACT.cn.email}` : CONTACT.global.email}
          </span>
          {cn ? (
            <a href={CONTACT.cn.icpUrl} target="_blank" rel="noreferrer">
              {CONTACT.cn.icpRecord}
            </a>
          ) : (
            <Typography.Text style={{ color: 'inherit' }}>
              {t('footer.copyright', { year, holder: CONTACT.global.copyrightHolder })}
            </Typography.Text>
          )}
        </Space>
      </Space>
    </footer>
  );
}
