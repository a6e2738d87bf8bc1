import type { DrawingSave } from '@cellcloud/contracts/drawings';

/** The arguments Excalidraw's onChange passes: elements, appState, files. */
export type SceneParts = [elements: readonly unknown[], appState: object, files: object];

/** App-state keys worth keeping between sessions (the rest is transient UI state). */
const KEPT_APP_STATE = [
  'viewBackgroundColor',
  'gridSize',
  'gridModeEnabled',
  'theme',
  'zoom',
  'scrollX',
  'scrollY',
];

/** The persistable part of a scene: non-deleted elements, a few app-state keys, files. */
export function toDrawingSave(elements: readonly unknown[], appState: object, files: object): DrawingSave {
  const state = appState as Record<string, unknown>;
  return {
    elements: elements.filter(
      (e): e is Record<string, unknown> =>
        typeof e === 'object' && e !== null && !(e as { isDeleted?: boolean }).isDeleted,
    ),
    appState: Object.fromEntries(KEPT_APP_STATE.filter((k) => k in state).map((k) => [k, state[k]])),
    files: { ...(files as Record<string, unknown>) },
  };
}
