// The hero page of examples/plain-html, from the npm package: the element from 'gpu-flock/element',
// the typed API from 'gpu-flock'.
import './style.css';
import 'gpu-flock/element';
import { FlockError, type Flock, type FlockParams } from 'gpu-flock';

const hero = document.querySelector('gpu-flock')!;
const button = document.querySelector<HTMLButtonElement>('#toggle')!;
const status = document.querySelector<HTMLOutputElement>('#backend')!;

button.addEventListener('click', () => {
  hero.toggleAttribute('paused');
  button.textContent = hero.hasAttribute('paused') ? 'Resume the flock' : 'Pause the flock';
});

hero.addEventListener('error', (e) => console.warn('gpu-flock:', e.detail));

const calm: Partial<FlockParams> = { cohesionWeight: 1.2, alignmentWeight: 1.1 };
hero.ready.then((flock: Flock) => {
  status.value = flock.backend;
  try {
    flock.setParams(calm);
  } catch (e) {
    if (e instanceof FlockError) console.warn(e.field, e.allowed);
  }
});
