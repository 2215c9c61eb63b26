import { useState } from 'react';
import type { ColorMode } from 'gpu-flock';
import { Flock } from './Flock';

const COUNTS = [2000, 4000, 8000];
const MODES: ColorMode[] = ['speed', 'heading', 'species', 'density', 'uniform'];
const COHESION = [0.5, 1, 2, 3];

/** A flock whose count, colour mode and cohesion are component state, and a toggle that removes it. */
export default function App() {
  const [shown, setShown] = useState(true);
  const [count, setCount] = useState(4000);
  const [colorMode, setColorMode] = useState<ColorMode>('speed');
  const [cohesion, setCohesion] = useState(1);
  const [status, setStatus] = useState('starting');
  return (
    <main>
      <h1>gpu-flock in React</h1>
      <div className="controls">
        <button
          id="toggle"
          onClick={() => {
            setShown(!shown);
            setStatus('starting');
          }}
        >
          {shown ? 'Remove the flock' : 'Add the flock'}
        </button>
        <label>
          Boids{' '}
          <select id="count" value={count} onChange={(e) => setCount(Number(e.target.value))}>
            {COUNTS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Colours{' '}
          <select
            id="color-mode"
            value={colorMode}
            onChange={(e) => setColorMode(e.target.value as ColorMode)}
          >
            {MODES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Cohesion{' '}
          <select
            id="cohesion"
            value={cohesion}
            onChange={(e) => setCohesion(Number(e.target.value))}
          >
            {COHESION.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      {shown && (
        <Flock
          count={count}
          colorMode={colorMode}
          cohesion={cohesion}
          onReady={(flock) => setStatus(`running on ${flock.backend}`)}
          onError={(error) => setStatus(`error: ${String(error)}`)}
        />
      )}
      <p id="status">{shown ? status : 'removed'}</p>
    </main>
  );
}
