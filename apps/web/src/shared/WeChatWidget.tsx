import { FloatButton, Popover } from 'antd';
import { WechatOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CONTACT } from '../config/contact';
import { useIsChina } from './useIsChina';

/** WeChat help widget, China region only (SPEC §1). */
export function WeChatWidget() {
  const { t } = useTranslation('common');
  const cn = useIsChina();
  if (!cn) return null;
  return (
    <Popover
      placement="leftBottom"
      title={t('wechat.title')}
      content={
        <div style={{ textAlign: 'center' }}>
          <img src={CONTACT.cn.qrCodes[0].src} alt={t('wechat.title')} width={140} height={140} />
          <div>{t('wechat.body', { id: CONTACT.cn.wechatId })}</div>
        </div>
      }
    >
      <FloatButton icon={<WechatOutlined />} type="primary" style={{ insetInlineEnd: 24 }} data-testid="wechat-widget" />
    </Popover>
  );
}
