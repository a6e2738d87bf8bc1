/** docs/product/validation.md#colours: custom colours are #RRGGBB and no two clusters of one subset share a colour. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

export type ColourCheck =
  | { ok: true; colour: string }
  | { ok: false; reason: 'invalidHex' }
  | { ok: false; reason: 'duplicate'; conflictWith: string };

/**
 * Checks a new colour for `label` against the colours currently shown for the other labels of the
 * same subset. Returns the normalized (lower-case) colour when accepted.
 */
export function checkCustomColour(
  label: string,
  colour: string,
  current: ReadonlyMap<string, string>,
): ColourCheck {
  const c = colour.trim();
  if (!HEX_COLOUR.test(c)) return { ok: false, reason: 'invalidHex' };
  const lower = c.toLowerCase();
  for (const [other, col] of current) {
    if (other !== label && col.toLowerCase() === lower)
      return { ok: false, reason: 'duplicate', conflictWith: other };
  }
  return { ok: true, colour: lower };
}
