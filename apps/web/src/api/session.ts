import { useSyncExternalStore } from 'react';
import type { StoredUserInfo } from '@cellcloud/contracts/account';
import { storage, STORAGE_KEYS } from '../shared/storage';

/**
 * The stored user info {token, user_name} (docs/product/entities.md#stored-user-info) and a tiny subscription so guards re-render
 * when it changes. `endSession` is the single way a session ends (logout, 401, maintenance).
 */
type Listener = () => void;
const listeners = new Set<Listener>();
const endListeners = new Set<(reason: SessionEndReason) => void>();
export type SessionEndReason = 'logout' | 'expired' | 'maintenance';

function read(): StoredUserInfo | null {
  const raw = storage.get(STORAGE_KEYS.userInfo);
  if (!raw) return null;
  try {
    return asUserInfo(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** Checks the stored-user-info shape by hand: this module is part of the first load (no zod). */
export function asUserInfo(v: unknown): StoredUserInfo | null {
  if (typeof v !== 'object' || v === null) return null;
  const { token, user_name } = v as Record<string, unknown>;
  return typeof token === 'string' && token && typeof user_name === 'string' ? { token, user_name } : null;
}

let current: StoredUserInfo | null = read();
const notify = () => listeners.forEach((l) => l());

export function getSession(): StoredUserInfo | null {
  return current;
}

export function startSession(info: StoredUserInfo): void {
  current = info;
  storage.set(STORAGE_KEYS.userInfo, JSON.stringify(info));
  notify();
}

/** Clears the stored user info and tells the app (which navigates to /login?redirect=…). */
export function endSession(reason: SessionEndReason): void {
  const had = current !== null;
  current = null;
  storage.remove(STORAGE_KEYS.userInfo);
  notify();
  if (had || reason !== 'logout') endListeners.forEach((l) => l(reason));
}

export function onSessionEnd(cb: (reason: SessionEndReason) => void): () => void {
  endListeners.add(cb);
  return () => endListeners.delete(cb);
}

function subscribe(l: Listener) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useSession(): StoredUserInfo | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
