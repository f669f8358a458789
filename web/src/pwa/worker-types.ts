/**
 * The few service-worker types the one worker uses (web/src/sw.ts), declared here rather than
 * through TypeScript's WebWorker library, which cannot share a program with the DOM library the
 * rest of the app is checked against.
 */

export interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

export interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}

export interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate?(url: string): Promise<WindowClient | null>;
}

export interface NotificationEvent extends ExtendableEvent {
  notification: { close(): void; data?: { url?: string } };
}

export interface MessageEvent extends ExtendableEvent {
  data: unknown;
}

export interface WorkerScope {
  location: Location;
  registration: { showNotification(title: string, options: NotificationOptions & { renotify?: boolean }): Promise<void> };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}
