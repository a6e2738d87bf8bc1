import { useRegion } from '../api/region';
import { isChina } from '../app/regionDomain';

/** True when the region lookup answered CN (China-region footer, contacts, WeChat widget). */
export function useIsChina(): boolean {
  return isChina(useRegion().data);
}
