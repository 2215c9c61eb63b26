// The hero's button pauses and resumes the flock; the status line shows the backend it runs on.
const hero = document.querySelector('gpu-flock');
const button = document.getElementById('toggle');
button.addEventListener('click', () => {
  hero.toggleAttribute('paused');
  button.textContent = hero.hasAttribute('paused') ? 'Resume the flock' : 'Pause the flock';
});
hero.addEventListener('error', (e) => console.warn('gpu-flock:', e.detail));
customElements.whenDefined('gpu-flock').then(async () => {
  const flock = await hero.ready;
  document.getElementById('backend').textContent = flock.backend;
});
