import type { DeskState } from '../queries.js';

/**
 * Fills of the desk states: a colour AND a pattern AND a letter, so that no state is told by
 * colour alone (docs/behaviour.md#the-map-and-the-plan-editor-web-app).
 */
export const STATE_STYLE: Record<DeskState, { label: string; fill: string; mark: string; description: string }> = {
  FREE: { label: 'Free', fill: '#2e7d32', mark: '', description: 'free for the whole time; can be booked' },
  PARTLY_FREE: { label: 'Partly free', fill: 'url(#fp-stripes)', mark: '◐', description: 'free for part of the time; the longest free stretch can be booked' },
  BOOKED: { label: 'Booked', fill: 'url(#fp-hatch)', mark: '×', description: 'booked for the whole time' },
  NOT_BOOKABLE: { label: 'Not bookable', fill: 'url(#fp-dots)', mark: '–', description: 'a fixed desk or a closed room' },
  MINE: { label: 'Yours', fill: '#1d4ed8', mark: '★', description: 'you have a reservation of it in this time' },
};

/**
 * Not a state of the desk but of the caller: free, but an exclusive area keeps them out that day
 * (docs/policies.md#why-a-desk-is-not-bookable). Its own colour, pattern and letter like the states.
 */
export const RESERVED_STYLE = {
  label: 'Reserved for a team',
  fill: 'url(#fp-team)',
  mark: '⊘',
  description: 'free, but reserved that day for teams you are not in; press it to see why',
};

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
  return <Swatch style={STATE_STYLE[state]} />;
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
