import { translate } from '../../../lib/translate.js';
import type { DeskState } from '../queries.js';

/** The fill and letter of each desk state; the words come from stateStyle. */
const STATE_FILLS: Record<DeskState, { fill: string; mark: string }> = {
  FREE: { fill: '#2e7d32', mark: '' },
  PARTLY_FREE: { fill: 'url(#fp-stripes)', mark: '◐' },
  BOOKED: { fill: 'url(#fp-hatch)', mark: '×' },
  NOT_BOOKABLE: { fill: 'url(#fp-dots)', mark: '–' },
  MINE: { fill: '#1d4ed8', mark: '★' },
};

/**
 * Fills of the desk states: a colour AND a pattern AND a letter, so that no state is told by
 * colour alone (docs/behaviour.md#the-map-and-the-plan-editor-web-app); the state's name and
 * what it means, in the language in use.
 */
export const stateStyle = (state: DeskState): { label: string; fill: string; mark: string; description: string } => ({
  ...STATE_FILLS[state],
  label: translate(`labels:deskState.${state}.label`),
  description: translate(`labels:deskState.${state}.description`),
});

/**
 * Not a state of the desk but of the caller: free, but an exclusive area keeps them out that day
 * (docs/policies.md#why-a-desk-is-not-bookable). Its own colour, pattern and letter like the states.
 */
export const reservedStyle = () => ({
  label: translate('labels:deskState.RESERVED.label'),
  fill: 'url(#fp-team)',
  mark: '⊘',
  description: translate('labels:deskState.RESERVED.description'),
});

export const STATE_ORDER: DeskState[] = ['FREE', 'PARTLY_FREE', 'BOOKED', 'NOT_BOOKABLE', 'MINE'];

/** Pattern definitions, once per SVG. */
export function PlanPatterns() {
  return (
    <defs>
      <pattern id="fp-stripes" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="8" height="8" fill="#fde68a" />
        <rect width="4" height="8" fill="#b45309" />
      </pattern>
      <pattern id="fp-hatch" width="8" height="8" patternUnits="userSpaceOnUse">
        <rect width="8" height="8" fill="#fecaca" />
        <path d="M0,0 L8,8 M8,0 L0,8" stroke="#991b1b" strokeWidth="1.5" />
      </pattern>
      <pattern id="fp-dots" width="6" height="6" patternUnits="userSpaceOnUse">
        <rect width="6" height="6" fill="#e5e7eb" />
        <circle cx="3" cy="3" r="1.3" fill="#4b5563" />
      </pattern>
      <pattern id="fp-team" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
        <rect width="8" height="8" fill="#ede9fe" />
        <rect width="2" height="8" fill="#5b21b6" />
      </pattern>
      <pattern id="fp-grid" width="50" height="50" patternUnits="userSpaceOnUse">
        <rect width="50" height="50" fill="#f8fafc" />
        <path d="M50,0 L0,0 0,50" fill="none" stroke="#cbd5e1" strokeWidth="1" />
      </pattern>
    </defs>
  );
}

/** One swatch of the legend (the patterns come from the map's PlanPatterns on the same page). */
export function StateSwatch({ state }: { state: DeskState }) {
  return <Swatch style={STATE_FILLS[state]} />;
}

/** A swatch of any fill and letter. */
export function Swatch({ style }: { style: { fill: string; mark: string } }) {
  return (
    <svg width="36" height="24" viewBox="0 0 36 24" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="34" height="22" rx="3" fill={style.fill} stroke="#111827" strokeWidth="1.5" />
      <text x="18" y="17" textAnchor="middle" fontSize="14" fontWeight="700" fill="#111827" stroke="#fff" strokeWidth="3" paintOrder="stroke">
        {style.mark}
      </text>
    </svg>
  );
}
