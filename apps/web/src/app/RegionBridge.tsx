import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRegion } from '../api/region';
import { setLocale, storedLocale } from '../i18n';
import { DEFAULT_LOCALE_MODE } from '../config/env';
import { regionDefaultLocale, targetDomain } from './regionDomain';

/**
 * Region check: when the server has regional domains configured (CN_DOMAIN / INTL_DOMAIN on the
 * API), sets the default language from countryIsoCode (unless the user picked one, or the build
 * uses the fixed-Chinese mode) and shows the redirect alert when the visitor is on the other
 * region's domain. Without domains the browser's language stands (regionDefaultLocale).
 */
export function RegionBridge() {
  const region = useRegion();
  const { modal } = App.useApp();
  const { t, i18n } = useTranslation('shell');
  const alerted = useRef(false);
  const defaulted = useRef(false);

  useEffect(() => {
    const data = region.data;
    if (!data) return;
    // once: the language change re-renders with a new `t`, which re-runs this effect
    if (!defaulted.current && !storedLocale() && DEFAULT_LOCALE_MODE === 'region') {
      defaulted.current = true;
      const wanted = regionDefaultLocale(data);
      if (wanted && i18n.language !== wanted) {
        setLocale(wanted, false);
        return; // the alert below is shown in the new language when this effect re-runs
      }
    }
    const target = targetDomain(data, window.location.hostname);
    if (target && !alerted.current) {
      alerted.current = true;
      modal.confirm({
        title: t('region.title'),
        content: t('region.body', { domain: target }),
        okText: t('region.go'),
        cancelText: t('region.stay'),
        onOk: () =>
          window.location.assign(`${window.location.protocol}//${target}${window.location.pathname}`),
      });
    }
  }, [region.data, modal, t, i18n]);
  return null;
}
