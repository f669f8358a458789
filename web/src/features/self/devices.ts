/** How a device is worded: the page passes its translations (docs/i18n.md). */
export interface DeviceWords {
  unknown: string;
  on: (browser: string, system: string) => string;
}

const ENGLISH: DeviceWords = { unknown: 'Unknown device', on: (browser, system) => `${browser} on ${system}` };

/** Browser and system from a User-Agent header, roughly: enough to recognise a device. */
export function deviceName(userAgent: string | null | undefined, words: DeviceWords = ENGLISH): string {
  if (!userAgent) return words.unknown;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  return browser && system ? words.on(browser, system) : (browser ?? system ?? userAgent.slice(0, 60));
}
