import type { ReactNode } from 'react';

/** Sets the browser tab's title for the screen (React hoists `<title>` into the head). */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <title>{`${title} | Vendfleet`}</title>
      {children}
    </>
  );
}
