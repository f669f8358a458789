import type { ReactNode } from 'react';

/** The centred frame of the pages shown before signing in. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="public">
      <div className="public-card">
        <p className="brand brand-public">
          <span className="brand-mark" aria-hidden="true" />
          Deskbook
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
