import { createFlock, FlockError } from 'gpu-flock';

// The flock fills an element the page sizes: here a new one, full width and 70% of the window high.
const host = document.createElement('div');
host.style.cssText = 'width: 100%; height: 70vh';
document.body.append(host);

// view: the box takes the element's shape (autoBounds) and fills it (fit: 'cover'); the dusk
// palette colours it.
const flock = await createFlock(host, {
  params: { count: 20000 },
  view: { autoBounds: true, fit: 'cover', palette: 'dusk' },
});
console.log(`gpu-flock runs on ${flock.backend}`, flock.fallbackReasons);
try {
  await flock.setParams({ species: 3 });
} catch (e) {
  if (e instanceof FlockError) console.warn(`${e.field}: ${e.message}`); // names the field and range
}
