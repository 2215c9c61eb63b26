// Boid drawing, as the WebGL2 renderer (glsl/boid.vert.glsl): the mesh of src/core/render-math.ts
// (BOID_MESH, 12 vertices, per-vertex shade) oriented along the velocity, scaled by boidSize and
// coloured by speed with SPEED_RAMP. Two vertex entry points:
//   vsInstanced  position and velocity per instance, read in the vertex stage as instance
//                attributes from the state buffer's two blocks (no storage buffer in the vertex
//                stage, no copy);
//   vsVertexId   one plain draw of count * 12 vertices, boid = vertex_index / 12, read from the
//                state as a storage buffer (only where the device allows storage in the vertex
//                stage; much faster where instancing is emulated, e.g. SwiftShader).
#include "render-params.gen.wgsl"
#include "speed-ramp.gen.wgsl"
#include "boid-mesh.gen.wgsl"

@group(0) @binding(0) var<uniform> R: RenderParams;

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

// corner: xyz in boid lengths (nose at +x) + w shade.
fn boidVertex(p: vec3f, v: vec3f, corner: vec4f) -> VertexOut {
  let speed = length(v);
  var fwd = vec3f(1.0, 0.0, 0.0);
  if (speed > 1e-12) {
    fwd = v / speed;
  }
  // 2D views look down z, so there the reference axis is z and the wide side lies in the plane.
  var upRef = vec3f(0.0, 0.0, 1.0);
  if (R.dimensions != 2u && abs(fwd.y) < 0.999) {
    upRef = vec3f(0.0, 1.0, 0.0);
  }
  let side = normalize(cross(fwd, upRef));
  let up = cross(side, fwd);
  let world = p + R.boidSize * (corner.x * fwd + corner.y * up + corner.z * side);
  var out: VertexOut;
  out.clip = R.viewProj * vec4f(world, 1.0);
  // viewProj is GL clip space (z in [-w, w]); WebGPU's is [0, w].
  out.clip.z = 0.5 * (out.clip.z + out.clip.w);
  out.color = speedColor(speed) * corner.w;
  return out;
}

struct InstancedIn {
  @builtin(vertex_index) corner: u32,
  @location(0) boidPos: vec4f,
  @location(1) boidVel: vec4f,
}

@vertex
fn vsInstanced(in: InstancedIn) -> VertexOut {
  var mesh = BOID_MESH;
  return boidVertex(in.boidPos.xyz, in.boidVel.xyz, mesh[in.corner]);
}

// The whole state buffer: positions, then velocities (boid.wgsl), so count = length / 2.
@group(0) @binding(1) var<storage, read> boids: array<vec4f>;

@vertex
fn vsVertexId(@builtin(vertex_index) vi: u32) -> VertexOut {
  let b = vi / BOID_MESH_VERTICES;
  let count = arrayLength(&boids) / 2u;
  var mesh = BOID_MESH;
  return boidVertex(boids[b].xyz, boids[count + b].xyz, mesh[vi % BOID_MESH_VERTICES]);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  return vec4f(in.color, 1.0);
}
