import { useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode, type WheelEvent as ReactWheelEvent } from 'react';
import { boundView, HOME, zoomAbout, type View } from '../geometry.js';
import '../styles.css';

/** Pointer travel (in screen pixels) under which a press counts as a click, not a pan. */
const CLICK_SLOP = 5;

export interface ZoomPanState {
  /** True right after a pan: the click that ends it must not book a desk. */
  panned: () => boolean;
}

/**
 * An SVG of `width` × `height` plan units that zooms (buttons, wheel, pinch) and pans (drag with
 * mouse, pen or finger). Children draw in plan units.
 */
export function ZoomPan({ width, height, label, children }: { width: number; height: number; label: string; children: (state: ZoomPanState) => ReactNode }) {
  const [view, setView] = useState<View>(HOME);
  const svg = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ moved: number; pinch?: number }>({ moved: 0 });
  const panned = useRef(false);

  /** Screen pixels to viewBox units. */
  const unitsPerPixel = () => {
    const rect = svg.current?.getBoundingClientRect();
    return rect && rect.width > 0 ? width / rect.width : 1;
  };
  const toViewBox = (clientX: number, clientY: number) => {
    const rect = svg.current!.getBoundingClientRect();
    return { x: ((clientX - rect.left) * width) / rect.width, y: ((clientY - rect.top) * height) / rect.height };
  };
  const apply = (next: View) => setView(boundView(next, width, height));
  const zoomButton = (factor: number) => apply(zoomAbout(view, factor, width / 2, height / 2));

  const onPointerDown = (event: ReactPointerEvent<SVGSVGElement>) => {
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 1) {
      gesture.current = { moved: 0 };
      panned.current = false;
    }
  };
  const onPointerMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    const last = pointers.current.get(event.pointerId);
    if (!last) return;
    const current = { x: event.clientX, y: event.clientY };
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.entries()].map(([id, point]) => (id === event.pointerId ? current : point));
      const distance = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      const mid = toViewBox((a!.x + b!.x) / 2, (a!.y + b!.y) / 2);
      if (gesture.current.pinch) apply(zoomAbout(view, distance / gesture.current.pinch, mid.x, mid.y));
      gesture.current.pinch = distance;
      gesture.current.moved += CLICK_SLOP;
    } else {
      const dx = current.x - last.x;
      const dy = current.y - last.y;
      gesture.current.moved += Math.abs(dx) + Math.abs(dy);
      if (gesture.current.moved > CLICK_SLOP) {
        if (!panned.current) svg.current?.setPointerCapture(event.pointerId);
        panned.current = true;
        const k = unitsPerPixel();
        apply({ ...view, tx: view.tx + dx * k, ty: view.ty + dy * k });
      }
    }
    pointers.current.set(event.pointerId, current);
  };
  const onPointerEnd = (event: ReactPointerEvent<SVGSVGElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) gesture.current.pinch = undefined;
  };
  const onWheel = (event: ReactWheelEvent<SVGSVGElement>) => {
    if (!event.ctrlKey && !event.metaKey && view.scale === 1 && event.deltaY > 0) return;
    const point = toViewBox(event.clientX, event.clientY);
    apply(zoomAbout(view, event.deltaY < 0 ? 1.2 : 1 / 1.2, point.x, point.y));
  };

  return (
    <div className="plan-zoom">
      <div className="plan-zoom-buttons" role="group" aria-label="Zoom">
        <button type="button" className="button-secondary button-small" onClick={() => zoomButton(1.5)} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="button-secondary button-small" onClick={() => zoomButton(1 / 1.5)} aria-label="Zoom out">
          −
        </button>
        <button type="button" className="button-secondary button-small" onClick={() => apply(HOME)}>
          Reset view
        </button>
        <span className="muted">{Math.round(view.scale * 100)}%</span>
      </div>
      <svg
        ref={svg}
        className="plan-svg"
        viewBox={`0 0 ${width} ${height}`}
        role="group"
        aria-label={label}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onWheel={onWheel}
      >
        <g transform={`translate(${view.tx} ${view.ty}) scale(${view.scale})`}>{children({ panned: () => panned.current })}</g>
      </svg>
    </div>
  );
}
