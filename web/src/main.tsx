import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The base styles first: each feature's own styles.css, imported by its components, comes after them.
import './styles.css';
import { queryClient } from './api/query.js';
import { App } from './App.js';
import { startI18n } from './lib/i18n.js';

// The language's files arrive first (docs/i18n.md): the first paint is already in the right language.
// A promise, not a top-level await: with one, the bundler moves everything the pages share out of
// the entry into chunks of their own, and the first page fetches a dozen more files
// (docs/i18n.md#what-it-weighs).
void startI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
});
