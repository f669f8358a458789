import { useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode, type WheelEvent as ReactWheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { minScaleForTargets } from '../fit.js';
import { boundView, HOME, MAX_SCALE, zoomAbout, type View } from '../geometry.js';
import '../styles.css';

/** Pointer travel (in screen pixels) under which a press counts as a click, not a pan. */
const CLICK_SLOP = 5;

export interface ZoomPanState {
  /** True right after a pan: the click that ends it must not book a desk. */
  panned: () => boolean;
  /** CSS pixels a plan unit is drawn at now (zoom included); 0 before the first layout. */
  pixelsPerUnit: number;
  /** Pans so that a box (plan units) is in sight, as when a desk gets keyboard focus. */
  reveal: (box: { x: number; y: number; width: number; height: number }) => void;
}

/**
 * An SVG of `width` × `height` plan units that zooms (buttons, wheel, pinch) and pans (drag with
 * mouse, pen or finger). Children draw in plan units. `minTarget`: the shorter side (plan units)
 * of the smallest thing to tap; the view never zooms out so far that it is drawn below 24 CSS
 * pixels (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map): on a phone the map opens zoomed
 * in at its top left corner, and is panned.
 */
export function ZoomPan({
  width,
  height,
  label,
  minTarget,
  children,
}: {
  width: number;
  height: number;
  label: string;
  minTarget?: number;
  children: (state: ZoomPanState) => ReactNode;
}) {
  const { t } = useTranslation('labels');
  const [view, setView] = useState<View>(HOME);
  // The drawn width of the SVG in CSS pixels, followed as the window changes.
  const [drawnWidth, setDrawnWidth] = useState(0);
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
  useLayoutEffect(() => {
    const element = svg.current;
    if (!element) return;
    // The content box, where the viewBox is drawn (the border is not part of it).
    const measure = () => setDrawnWidth(element.clientWidth || element.getBoundingClientRect().width);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const minScale = minTarget === undefined ? 1 : minScaleForTargets(minTarget, drawnWidth / width, MAX_SCALE);
  // Zoomed in at least to minScale (about the top left corner, where a plan starts to be read).
  const shown = view.scale >= minScale ? view : { scale: minScale, tx: (view.tx / view.scale) * minScale, ty: (view.ty / view.scale) * minScale };
  const apply = (next: View) =>
    setView(boundView(next.scale >= minScale ? next : zoomAbout(next, minScale / next.scale, width / 2, height / 2), width, height));
  const zoomButton = (factor: number) => apply(zoomAbout(shown, factor, width / 2, height / 2));
  const reveal = (box: { x: number; y: number; width: number; height: number }) => {
    // The box's place on screen in viewBox units, and the shift that brings it inside with a margin.
    const margin = Math.min(width, height) * 0.02;
    const left = box.x * shown.scale + shown.tx;
    const top = box.y * shown.scale + shown.ty;
    const right = (box.x + box.width) * shown.scale + shown.tx;
    const bottom = (box.y + box.height) * shown.scale + shown.ty;
    const dx = left < margin ? margin - left : right > width - margin ? width - margin - right : 0;
    const dy = top < margin ? margin - top : bottom > height - margin ? height - margin - bottom : 0;
    if (dx !== 0 || dy !== 0) apply({ ...shown, tx: shown.tx + dx, ty: shown.ty + dy });
  };

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
      if (gesture.current.pinch) apply(zoomAbout(shown, distance / gesture.current.pinch, mid.x, mid.y));
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
        apply({ ...shown, tx: shown.tx + dx * k, ty: shown.ty + dy * k });
      }
    }
    pointers.current.set(event.pointerId, current);
  };
  const onPointerEnd = (event: ReactPointerEvent<SVGSVGElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) gesture.current.pinch = undefined;
  };
  const onWheel = (event: ReactWheelEvent<SVGSVGElement>) => {
    if (!event.ctrlKey && !event.metaKey && shown.scale <= minScale && event.deltaY > 0) return;
    const point = toViewBox(event.clientX, event.clientY);
    apply(zoomAbout(shown, event.deltaY < 0 ? 1.2 : 1 / 1.2, point.x, point.y));
  };

  return (
    <div className="plan-zoom">
      <div className="plan-zoom-buttons" role="group" aria-label={t('zoom.group')}>
        <button type="button" className="button-secondary button-small" onClick={() => zoomButton(1.5)} aria-label={t('zoom.in')}>
          +
        </button>
        <button type="button" className="button-secondary button-small" onClick={() => zoomButton(1 / 1.5)} aria-label={t('zoom.out')}>
          −
        </button>
        <button type="button" className="button-secondary button-small" onClick={() => setView(HOME)}>
          {t('zoom.reset')}
        </button>
        <span className="muted">{Math.round(shown.scale * 100)}%</span>
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
        <g transform={`translate(${shown.tx} ${shown.ty}) scale(${shown.scale})`}>
          {children({ panned: () => panned.current, pixelsPerUnit: (drawnWidth / width) * shown.scale, reveal })}
        </g>
      </svg>
    </div>
  );
}
