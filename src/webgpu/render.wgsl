// Instanced boid drawing: the mesh of src/core/render-math.ts (BOID_MESH + per-vertex shade) per
// vertex, the boid record per instance (read in the vertex stage as instance attributes of the
// state buffer, so no storage buffer is needed in the vertex stage). Oriented along the velocity,
// coloured by speed with SPEED_RAMP, as the WebGL2 renderer does.
#include "render-params.gen.wgsl"
#include "speed-ramp.gen.wgsl"

@group(0) @binding(0) var<uniform> R: RenderParams;

struct VertexIn {
  @location(0) corner: vec3f,
  @location(1) shade: f32,
  @location(2) boidPos: vec4f,
  @location(3) boidVel: vec4f,
}

struct VertexOut {
  @builtin(position) clip: vec4f,
  @location(0) color: vec3f,
}

fn speedColor(speed: f32) -> vec3f {
  let span = R.maxSpeed - R.minSpeed;
  var t = speed / max(R.maxSpeed, 1e-6);
  if (span > 1e-6) {
    t = (speed - R.minSpeed) / span;
  }
  t = clamp(t, 0.0, 1.0) * 3.0;
  let i = min(2u, u32(floor(t)));
  var ramp = SPEED_RAMP;
  return mix(ramp[i], ramp[i + 1u], t - f32(i));
}

@vertex
fn vs(in: VertexIn) -> VertexOut {
  let v = in.boidVel.xyz;
  let speed = length(v);
  var fwd = vec3f(1.0, 0.0, 0.0);
  if (speed > 1e-6) {
    fwd = v / speed;
  }
  // Wings lie in the plane the camera sees: world up in 3D, the z axis (towards the camera) in 2D.
  var upRef = vec3f(0.0, 1.0, 0.0);
  if (R.dimensions == 2u) {
    upRef = vec3f(0.0, 0.0, 1.0);
  }
  var side = cross(fwd, upRef);
  if (dot(side, side) < 1e-8) {
    side = cross(fwd, vec3f(1.0, 0.0, 0.0));
  }
  side = normalize(side);
  let up = cross(side, fwd);
  let local = in.corner * R.boidSize;
  let world = in.boidPos.xyz + fwd * local.x + up * local.y + side * local.z;
  var out: VertexOut;
  out.clip = R.viewProj * vec4f(world, 1.0);
  // viewProj is GL clip space (z in [-w, w]); WebGPU wants [0, w].
  out.clip.z = 0.5 * (out.clip.z + out.clip.w);
  out.color = speedColor(speed) * in.shade;
  return out;
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  return vec4f(in.color, 1.0);
}
