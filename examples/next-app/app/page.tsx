import { FlockDemo } from './flock-demo';

// Rendered on the server at every request (not prerendered at build time).
export const dynamic = 'force-dynamic';

// A server component: the page's HTML, <gpu-flock> included, is rendered on the server; the
// client components hydrate it and the element upgrades in the browser.
export default function Page() {
  return <FlockDemo />;
}
