// readme:start
import 'gpu-flock/element'; // defines <gpu-flock> (on a server it defines nothing)
import type {} from 'gpu-flock/react'; // types <gpu-flock> in JSX
import type { ColorMode, Flock as FlockObject } from 'gpu-flock';

export function Flock(props: {
  count: number;
  colorMode: ColorMode;
  cohesion: number;
  onReady: (flock: FlockObject) => void;
  onError: (error: unknown) => void;
}) {
  return (
    <gpu-flock
      className="flock"
      bounds="auto"
      palette="dusk"
      fit="cover"
      count={props.count}
      color-mode={props.colorMode}
      cohesion-weight={props.cohesion}
      onready={(e) => props.onReady(e.detail.flock)}
      onerror={(e) => props.onError(e.detail.error)}
    />
  );
}
// readme:end
