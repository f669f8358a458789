import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { projectPath } from '../src/shared/paths.js';

/**
 * Draws the installed app's icons (docs/pwa.md#installing) from web/src/favicon.svg into
 * web/public/icons/: 192 and 512 px as they are, and a 512 px maskable one whose drawing keeps
 * to the middle 80 % (the safe zone a launcher's mask never cuts) on the favicon's blue. The PNGs
 * are committed; run `npx tsx scripts/pwa-icons.ts` after changing the favicon.
 */

const FAVICON = projectPath('web', 'src', 'favicon.svg');
export const ICON_DIR = projectPath('web', 'public', 'icons');
const BLUE = '#1f4fd1';

export async function drawIcons(outDir = ICON_DIR): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const svg = readFileSync(FAVICON);
  for (const size of [192, 512])
    await sharp(svg, { density: (72 * size) / 32 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(path.join(outDir, `icon-${size}.png`));
  // Maskable: the square without its rounded corners, the drawing shrunk into the safe zone.
  const inner = Math.round(512 * 0.8);
  const drawing = await sharp(svg, { density: (72 * inner) / 32 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  await sharp({ create: { width: 512, height: 512, channels: 4, background: BLUE } })
    .composite([{ input: drawing, gravity: 'centre' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(outDir, 'maskable-512.png'));
}

if (import.meta.url === `file://${process.argv[1]}`) await drawIcons();
