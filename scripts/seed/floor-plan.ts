import sharp from 'sharp';

/**
 * Generated floor plans for sample data and tests (docs/behaviour.md#floor-plans): rooms drawn as
 * a grid of boxes on one floor, desks in rows inside them. The picture is an SVG rendered to PNG
 * by sharp; the desk positions are fractions of it, as the API takes them.
 */

export interface PlanRoom {
  name: string;
  desks: number;
}

export interface PlannedPosition {
  room: number;
  desk: number;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

export const PLAN_WIDTH = 1600;
export const PLAN_HEIGHT = 1000;
const MARGIN = 40;
const GAP = 24;
const LABEL = 34;

const round = (value: number) => Math.round(value * 10_000) / 10_000;
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Rooms in a near-square grid; in each, desks in rows of up to `perRow`, every other row turned 180° (facing pairs). */
export function layoutPlan(rooms: PlanRoom[]): { boxes: { x: number; y: number; width: number; height: number }[]; positions: PlannedPosition[] } {
  const columns = Math.max(1, Math.min(rooms.length, Math.ceil(Math.sqrt(rooms.length * (PLAN_WIDTH / PLAN_HEIGHT)))));
  const rows = Math.max(1, Math.ceil(rooms.length / columns));
  const boxWidth = (PLAN_WIDTH - 2 * MARGIN - (columns - 1) * GAP) / columns;
  const boxHeight = (PLAN_HEIGHT - 2 * MARGIN - (rows - 1) * GAP) / rows;
  const boxes = rooms.map((_, index) => ({
    x: MARGIN + (index % columns) * (boxWidth + GAP),
    y: MARGIN + Math.floor(index / columns) * (boxHeight + GAP),
    width: boxWidth,
    height: boxHeight,
  }));
  const positions: PlannedPosition[] = [];
  rooms.forEach((room, roomIndex) => {
    if (room.desks === 0) return;
    const box = boxes[roomIndex]!;
    const inner = { x: box.x + 12, y: box.y + LABEL, width: box.width - 24, height: box.height - LABEL - 12 };
    const perRow = Math.max(1, Math.ceil(Math.sqrt(room.desks * (inner.width / inner.height))));
    const deskRows = Math.ceil(room.desks / perRow);
    const cellWidth = inner.width / perRow;
    const cellHeight = inner.height / deskRows;
    for (let desk = 0; desk < room.desks; desk++) {
      const column = desk % perRow;
      const row = Math.floor(desk / perRow);
      const width = cellWidth * 0.8;
      const height = Math.min(cellHeight * 0.7, width * 0.75);
      const x = inner.x + column * cellWidth + (cellWidth - width) / 2;
      const y = inner.y + row * cellHeight + (cellHeight - height) / 2;
      positions.push({
        room: roomIndex,
        desk,
        x: round(x / PLAN_WIDTH),
        y: round(y / PLAN_HEIGHT),
        width: round(width / PLAN_WIDTH),
        height: round(height / PLAN_HEIGHT),
        rotation: row % 2 === 1 ? 180 : 0,
      });
    }
  });
  return { boxes, positions };
}

/** The plan picture as PNG: walls, room names, a door gap per room. */
export async function renderPlanImage(title: string, rooms: PlanRoom[]): Promise<Buffer> {
  const { boxes } = layoutPlan(rooms);
  const shapes = boxes
    .map(
      (box, index) => `
      <rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" fill="#f8fafc" stroke="#334155" stroke-width="6"/>
      <line x1="${box.x + box.width / 2 - 30}" y1="${box.y + box.height}" x2="${box.x + box.width / 2 + 30}" y2="${box.y + box.height}" stroke="#f1f5f9" stroke-width="8"/>
      <text x="${box.x + 12}" y="${box.y + 26}" font-family="sans-serif" font-size="20" fill="#334155">${escape(rooms[index]!.name)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PLAN_WIDTH}" height="${PLAN_HEIGHT}" viewBox="0 0 ${PLAN_WIDTH} ${PLAN_HEIGHT}">
    <rect width="${PLAN_WIDTH}" height="${PLAN_HEIGHT}" fill="#e2e8f0"/>
    <rect x="12" y="12" width="${PLAN_WIDTH - 24}" height="${PLAN_HEIGHT - 24}" fill="none" stroke="#0f172a" stroke-width="10"/>
    ${shapes}
    <text x="${PLAN_WIDTH - 24}" y="${PLAN_HEIGHT - 20}" text-anchor="end" font-family="sans-serif" font-size="18" fill="#475569">${escape(title)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}
