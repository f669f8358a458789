import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The base styles first: each feature's own styles.css, imported by its components, comes after them.
import './styles.css';
import { queryClient } from './api/query.js';
import { App } from './App.js';
import { startI18n } from './lib/i18n.js';
import { registerWorkerAfterLoad } from './pwa/register.js';

// The language's files arrive first (docs/i18n.md): the first paint is already in the right language.
await startI18n();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);

// The installable app's one service worker, after the page has loaded (docs/pwa.md#cost).
registerWorkerAfterLoad();
