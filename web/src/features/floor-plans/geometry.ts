/**
 * Pure geometry of floor plans (docs/behaviour.md#floor-plans): positions are fractions of the
 * plan image, rotation in degrees clockwise about the shape's centre, 0 ≤ rotation < 360.
 */

export interface Shape {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

/** A new desk's size on the plan, as fractions of the image. */
export const DEFAULT_SIZE = { width: 0.06, height: 0.045 };
export const MIN_SIZE = 0.01;
/** Arrow keys move a selected desk this far (Shift: ten times). */
export const NUDGE = 0.005;
export const ROTATE_STEP = 15;
export const RESIZE_STEP = 0.005;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Four decimals are a tenth of a pixel on a 1600-pixel image, and keep the sums x + width exact enough. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

export function normaliseRotation(degrees: number): number {
  const turned = (((Math.round(degrees * 100) / 100) % 360) + 360) % 360;
  return turned === 360 ? 0 : turned;
}

/** The shape made valid: inside the image, at least MIN_SIZE, rotation in [0, 360). */
export function fitShape(shape: Shape): Shape {
  const width = round(clamp(shape.width, MIN_SIZE, 1));
  const height = round(clamp(shape.height, MIN_SIZE, 1));
  return {
    x: round(clamp(shape.x, 0, 1 - width)),
    y: round(clamp(shape.y, 0, 1 - height)),
    width,
    height,
    rotation: normaliseRotation(shape.rotation),
  };
}

/** A new shape of the default size centred at (cx, cy). */
export function shapeAt(cx: number, cy: number): Shape {
  return fitShape({ x: cx - DEFAULT_SIZE.width / 2, y: cy - DEFAULT_SIZE.height / 2, ...DEFAULT_SIZE, rotation: 0 });
}

export function moveBy(shape: Shape, dx: number, dy: number): Shape {
  return fitShape({ ...shape, x: shape.x + dx, y: shape.y + dy });
}

export function resizeBy(shape: Shape, dw: number, dh: number): Shape {
  return fitShape({ ...shape, width: Math.min(shape.width + dw, 1 - shape.x), height: Math.min(shape.height + dh, 1 - shape.y) });
}

export function rotateBy(shape: Shape, degrees: number): Shape {
  return { ...shape, rotation: normaliseRotation(shape.rotation + degrees) };
}

export type KeyEdit = { kind: 'shape'; shape: Shape } | { kind: 'remove' } | undefined;

/** What a key pressed on a selected desk in the editor does. */
export function keyEdit(shape: Shape, key: string, shift: boolean): KeyEdit {
  const step = shift ? NUDGE * 10 : NUDGE;
  switch (key) {
    case 'ArrowLeft':
      return { kind: 'shape', shape: moveBy(shape, -step, 0) };
    case 'ArrowRight':
      return { kind: 'shape', shape: moveBy(shape, step, 0) };
    case 'ArrowUp':
      return { kind: 'shape', shape: moveBy(shape, 0, -step) };
    case 'ArrowDown':
      return { kind: 'shape', shape: moveBy(shape, 0, step) };
    case '[':
      return { kind: 'shape', shape: rotateBy(shape, -ROTATE_STEP) };
    case ']':
      return { kind: 'shape', shape: rotateBy(shape, ROTATE_STEP) };
    case '+':
    case '=':
      return { kind: 'shape', shape: resizeBy(shape, RESIZE_STEP, RESIZE_STEP) };
    case '-':
      return { kind: 'shape', shape: resizeBy(shape, -RESIZE_STEP, -RESIZE_STEP) };
    case 'Delete':
    case 'Backspace':
      return { kind: 'remove' };
    default:
      return undefined;
  }
}

/** Zoom and pan of the map: plan coordinates are shown at `scale`, shifted by (tx, ty) in viewBox units. */
export interface View {
  scale: number;
  tx: number;
  ty: number;
}
export const HOME: View = { scale: 1, tx: 0, ty: 0 };
export const MIN_SCALE = 1;
export const MAX_SCALE = 8;

/** Zoomed by `factor` about the point (px, py) of the viewBox, which stays where it is. */
export function zoomAbout(view: View, factor: number, px: number, py: number): View {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const applied = scale / view.scale;
  return { scale, tx: px - (px - view.tx) * applied, ty: py - (py - view.ty) * applied };
}

/** Kept so that the plan still covers the viewport (no panning it out of sight). */
export function boundView(view: View, width: number, height: number): View {
  return { scale: view.scale, tx: clamp(view.tx, width - width * view.scale, 0), ty: clamp(view.ty, height - height * view.scale, 0) };
}
