// The speed colour ramp of src/core/render-draw.ts (speedColor of SPEED_RAMP): t from
// minSpeed..maxSpeed (speed / maxSpeed when the span is ~0), then 3 linear segments between the
// 4 stops uploaded from the palette's ramp (default: SPEED_RAMP, steel blue -> warm white).
uniform vec3 uRamp[4];

vec3 speedColor(float speed, float minSpeed, float maxSpeed) {
  float span = maxSpeed - minSpeed;
  float t = span > 1e-6 ? (speed - minSpeed) / span : speed / max(maxSpeed, 1e-6);
  t = clamp(t, 0.0, 1.0) * 3.0;
  int i = min(2, int(floor(t)));
  float f = t - float(i);
  return mix(uRamp[i], uRamp[i + 1], f);
}
