// The picture, as the WebGL2 renderer (src/webgl2/boid.vert.glsl, src/webgl2/look.glsl and friends): the
// shape's mesh of src/core/look.ts (R.mesh, R.verts vertices, animated, lit and fogged by
// boidLook, the twin of look.glsl) oriented along the velocity, scaled by boidSize and coloured by
// the view's colour mode (boidColor, the twin of src/webgl2/boid-color.glsl); predators (the same mesh,
// larger, red), obstacles (ray-traced sphere impostors; flat circles in 2D), the box outline and
// the attractor's soft marker.
// Two vertex entry points for the boids:
//   vsInstanced  position and velocity per instance, read in the vertex stage as instance
//                attributes from the state buffer's two blocks (no storage buffer in the vertex
//                stage, no copy);
//   vsVertexId   one plain draw of count * verts vertices, boid = vertex_index / verts, read from
//                the state as a storage buffer (only where the device allows storage in the vertex
//                stage; much faster where instancing is emulated, e.g. SwiftShader).
// The colour of `density` mode needs |N_i|: the state's velocity w (see boid.wgsl) carries the
// boid id, so |N_i| comes from the simulation's `nbr` buffer (one f32 per boid, in the order of
// the state), as a third instance attribute or a second storage buffer.
#include "render-params.gen.wgsl"

@group(0) @binding(0) var<uniform> R: RenderParams;

const TWO_PI: f32 = 6.28318530718;

struct VertexOut {
  @builtin(position) clip: vec4f,
  // Premultiplied.
  @location(0) color: vec4f,
  // Dots: the quad coordinate, and 1 where the dot is drawn round.
  @location(1) quad: vec3f,
}

fn speedColor(speed: f32) -> vec3f {
  let span = R.maxSpeed - R.minSpeed;
  var t = speed / max(R.maxSpeed, 1e-6);
  if (span > 1e-6) {
    t = (speed - R.minSpeed) / span;
  }
  t = clamp(t, 0.0, 1.0) * 3.0;
  let i = min(2u, u32(floor(t)));
  return mix(R.ramp[i].rgb, R.ramp[i + 1u].rgb, t - f32(i));
}

fn tableSequential(t: f32) -> vec3f {
  let x = clamp(t, 0.0, 1.0) * 63.0;
  let i = min(62u, u32(floor(x)));
  return mix(R.table[i].rgb, R.table[i + 1u].rgb, x - f32(i));
}

fn tableCyclic(t: f32) -> vec3f {
  let x = fract(t) * 64.0;
  let i = min(63u, u32(floor(x)));
  let j = select(i + 1u, 0u, i == 63u);
  return mix(R.table[i].rgb, R.table[j].rgb, x - f32(i));
}

// Colour modes as src/core/render-math.ts COLOR_MODE_CODE: 0 speed, 1 uniform, 2 species,
// 3 density, 4 heading.
fn boidColor(v: vec3f, species: f32, neighbours: f32) -> vec3f {
  if (R.colorMode == 1u) {
    return R.color;
  }
  if (R.colorMode == 2u) {
    return R.table[u32(clamp(floor(species + 0.5), 0.0, 63.0))].rgb;
  }
  if (R.colorMode == 3u) {
    return tableSequential(neighbours / R.densityMax);
  }
  let speed = length(v);
  if (R.colorMode == 4u) {
    var h = v.xz;
    if (R.dimensions == 2u) {
      h = v.xy;
    }
    // atan2(0, 0) is undefined: a boid at rest points along +x, as in the mesh.
    var angle = 0.0;
    if (dot(h, h) > 0.0) {
      angle = atan2(h.y, h.x);
    }
    let c = tableCyclic(angle / TWO_PI + 0.5);
    if (R.dimensions == 2u || speed <= 0.0) {
      return c;
    }
    let u = v.y / speed;
    if (u > 0.0) {
      return mix(c, vec3f(1.0), 0.5 * u);
    }
    return c * (1.0 + 0.5 * u);
  }
  return speedColor(speed);
}

fn toClip(world: vec3f) -> vec4f {
  var clip = R.viewProj * vec4f(world, 1.0);
  // viewProj is GL clip space (z in [-w, w]); WebGPU's is [0, w].
  clip.z = 0.5 * (clip.z + clip.w);
  return clip;
}

// src/core/look.ts DIHEDRAL, MAX_WING, GLIDE, WING_LIMIT, MAX_TAIL, FISH_CRUISE, TAIL_PIVOT,
// DOT_RADIUS, LOD_DOT, MIN_DOT_PX, ROUND_DOT_PX (LOOK_CONSTANTS, src/core/look-uniforms.ts).
#include "look-constants.gen.wgsl"

fn lowbias32(x0: u32) -> u32 {
  var x = x0;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

// x: wing angle, y: tail angle (radians), as look.ts animationAngles.
fn animationAngles(id: f32, v: vec3f) -> vec2f {
  let h = lowbias32(u32(max(id, 0.0) + 0.5));
  let h1 = f32(h & 0xffffu) / 65536.0;
  let h2 = f32(h >> 16u) / 65536.0;
  let speed = length(v);
  var climb = 0.0;
  if (R.dimensions == 3u && speed > 0.0) {
    climb = max(0.0, v.y / speed);
  }
  let slow = clamp((R.maxSpeed - speed) / max(R.maxSpeed - R.minSpeed, 1e-6), 0.0, 1.0);
  let w = clamp(2.5 * climb + slow, 0.0, 1.0);
  let a = TWO_PI * h1;
  let osc = sin(a + R.clock.x) * (1.0 - w) + sin(a + R.clock.y) * w;
  let g = smoothstep(-0.2, 0.35, sin(TWO_PI * h2 + R.clock.z));
  let flap = R.look.x;
  let amp = flap * ((GLIDE + (1.0 - GLIDE) * g) * (1.0 - w) + w);
  let wing = clamp(DIHEDRAL * min(flap, 1.0) + MAX_WING * amp * osc, -WING_LIMIT, WING_LIMIT);
  let tail = flap * MAX_TAIL * (FISH_CRUISE * (1.0 - w) + w) * osc;
  return vec2f(wing, tail);
}

// Lit colour of a face whose unit world normal n faces the eye (look.ts shade).
fn shadeLook(base: vec3f, n: vec3f) -> vec3f {
  let up = 0.5 + 0.5 * dot(n, R.skyDir);
  let lambert = max(dot(n, R.lightDir), 0.0);
  let hemi = mix(R.groundColor, R.skyColor, up);
  let lit = base * (0.6 * hemi + 0.65 * lambert * R.lightColor);
  return min(mix(base, lit, R.look.y), vec3f(1.0));
}

fn dotCorner(corner: u32) -> vec2f {
  switch corner {
    case 0u, 3u: { return vec2f(-1.0, -1.0); }
    case 1u: { return vec2f(1.0, -1.0); }
    case 2u, 4u: { return vec2f(1.0, 1.0); }
    case 5u: { return vec2f(-1.0, 1.0); }
    default: { return vec2f(0.0); }
  }
}

// One vertex of boid (p, v, id) of length `size` and colour `base` (look.glsl boidLook).
fn boidLook(p: vec3f, v: vec3f, id: f32, base: vec3f, corner: u32, size: f32) -> VertexOut {
  var out: VertexOut;
  let centre = toClip(p);
  let lengthPx = size * R.fog.z / max(centre.w, 1e-6);
  var world = p;
  var n: vec3f;
  out.quad = vec3f(0.0);
  if (R.shape == 3u || (R.look.w > 0.0 && lengthPx < R.look.w)) {
    // A camera-facing dot: the first 6 corners; the others sit on its centre (no area), and
    // return before the shading: a far bird costs its 6 dot corners, not its whole mesh.
    if (corner >= 6u) {
      out.clip = centre;
      out.color = vec4f(0.0);
      return out;
    }
    var k = LOD_DOT;
    if (R.shape == 3u) {
      k = DOT_RADIUS;
    }
    let r = max(k * lengthPx, MIN_DOT_PX);
    let q = dotCorner(corner);
    out.clip = centre;
    out.clip.x += q.x * r * 2.0 / R.viewport.x * centre.w;
    out.clip.y += q.y * r * 2.0 / R.viewport.y * centre.w;
    out.quad = vec3f(q, select(0.0, 1.0, r >= ROUND_DOT_PX));
    n = normalize(R.eye - p);
  } else {
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
    let m = R.mesh[2u * corner];
    var lp = m.xyz;
    var ln = R.mesh[2u * corner + 1u].xyz;
    let part = u32(m.w + 0.5);
    if (part != 0u) {
      let ang = animationAngles(id, v);
      if (part == 3u) {
        let c = cos(ang.y);
        let s = sin(ang.y);
        let dx = lp.x - TAIL_PIVOT;
        lp = vec3f(TAIL_PIVOT + dx * c - lp.z * s, lp.y, dx * s + lp.z * c);
        ln = vec3f(ln.x * c - ln.z * s, ln.y, ln.x * s + ln.z * c);
      } else {
        var a = ang.x;
        if (part == 2u) {
          a = -a;
        }
        let c = cos(a);
        let s = sin(a);
        lp = vec3f(lp.x, lp.y * c + lp.z * s, lp.z * c - lp.y * s);
        ln = vec3f(ln.x, ln.y * c + ln.z * s, ln.z * c - ln.y * s);
      }
    }
    world = p + size * (lp.x * fwd + lp.y * up + lp.z * side);
    out.clip = toClip(world);
    n = normalize(ln.x * fwd + ln.y * up + ln.z * side);
    if (dot(n, R.eye - world) < 0.0) {
      n = -n;
    }
  }
  let lit = shadeLook(base, n);
  let f = R.look.z * clamp((dot(world - R.eye, R.forward) - R.fog.x) * R.fog.y, 0.0, 1.0);
  out.color = vec4f(lit * (1.0 - f), 1.0 - f);
  return out;
}

fn boidVertex(p: vec4f, v: vec4f, nbr: f32, corner: u32) -> VertexOut {
  // velocity.w carries the boid id (boid.wgsl).
  return boidLook(p.xyz, v.xyz, v.w, boidColor(v.xyz, p.w, nbr), corner, R.boidSize);
}

struct InstancedIn {
  @builtin(vertex_index) corner: u32,
  @location(0) boidPos: vec4f,
  @location(1) boidVel: vec4f,
  @location(2) boidNbr: f32,
}

@vertex
fn vsInstanced(in: InstancedIn) -> VertexOut {
  return boidVertex(in.boidPos, in.boidVel, in.boidNbr, in.corner);
}

// The whole state buffer: positions, then velocities (boid.wgsl), so count = length / 2.
@group(0) @binding(1) var<storage, read> boids: array<vec4f>;
@group(0) @binding(2) var<storage, read> nbrs: array<f32>;

@vertex
fn vsVertexId(@builtin(vertex_index) vi: u32) -> VertexOut {
  let b = vi / R.verts;
  let count = arrayLength(&boids) / 2u;
  return boidVertex(boids[b], boids[count + b], nbrs[b], vi - b * R.verts);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  if (in.quad.z > 0.5 && dot(in.quad.xy, in.quad.xy) > 1.0) {
    discard;
  }
  return in.color;
}

// Predators: instance k at R.predators[2k] (position) heading R.predators[2k + 1], flying at
// maxSpeed (their index is their id for the animation).
@vertex
fn vsPredator(@builtin(vertex_index) corner: u32, @builtin(instance_index) k: u32) -> VertexOut {
  let p = R.predators[2u * k].xyz;
  let v = R.predators[2u * k + 1u].xyz * R.maxSpeed;
  return boidLook(p, v, f32(k), R.predatorColor, corner, R.predatorSize);
}

// Camera-facing quads around a sphere (centre xyz, radius w), `pad` radii each way.
struct QuadOut {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
  @location(1) quad: vec2f,
  @location(2) @interpolate(flat) sphere: vec4f,
}

fn quadVertex(s: vec4f, vi: u32, pad: f32) -> QuadOut {
  var corners = array<vec2f, 6>(
    vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
    vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
  );
  let q = corners[vi] * pad;
  let world = s.xyz + s.w * (q.x * R.right + q.y * R.up);
  var out: QuadOut;
  out.clip = toClip(world);
  out.world = world;
  out.quad = q;
  out.sphere = s;
  return out;
}

@vertex
fn vsObstacle(@builtin(vertex_index) vi: u32, @builtin(instance_index) k: u32) -> QuadOut {
  // A sphere seen in perspective covers more than its radius on the plane through its centre.
  var pad = 1.6;
  if (R.dimensions == 2u) {
    pad = 1.0;
  }
  return quadVertex(R.obstacles[k], vi, pad);
}

struct SphereOut {
  @location(0) color: vec4f,
  @builtin(frag_depth) depth: f32,
}

// 3D: the sphere ray-traced from the eye, lit from over the viewer's shoulder, its true depth
// written; 2D: a flat disc with a lighter rim at the plane's depth.
@fragment
fn fsObstacle(in: QuadOut) -> SphereOut {
  var out: SphereOut;
  let base = R.obstacleColor;
  if (R.dimensions == 2u) {
    let d = length(in.quad);
    if (d > 1.0) {
      discard;
    }
    let rim = smoothstep(0.86, 0.93, d);
    out.color = vec4f(mix(base * 0.8, base * 1.35, rim), 1.0);
    out.depth = in.clip.z;
    return out;
  }
  let dir = normalize(in.world - R.eye);
  let oc = R.eye - in.sphere.xyz;
  let b = dot(oc, dir);
  let disc = b * b - (dot(oc, oc) - in.sphere.w * in.sphere.w);
  if (disc < 0.0) {
    discard;
  }
  var t = -b - sqrt(disc);
  if (t < 0.0) {
    t = -b + sqrt(disc);
  }
  if (t < 0.0) {
    discard;
  }
  let hit = R.eye + t * dir;
  let n = normalize(hit - in.sphere.xyz);
  let light = normalize(-0.45 * R.right + 0.65 * R.up - 0.6 * R.forward);
  let lambert = max(dot(n, light), 0.0);
  let h = normalize(light - dir);
  let spec = pow(max(dot(n, h), 0.0), 40.0);
  out.color = vec4f(base * (0.22 + 0.78 * lambert) + 0.25 * spec, 1.0);
  let clip = toClip(hit);
  out.depth = clamp(clip.z / clip.w, 0.0, 1.0);
  return out;
}

// The box outline: 12 edges (4 at z = 0 in 2D) as a line list, as src/webgl2/bounds.vert.glsl.
@vertex
fn vsBounds(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
  let e = vi / 2u;
  let end = f32(vi % 2u);
  var b = vec3f(0.0);
  if (R.dimensions == 2u) {
    let k = f32(e % 2u);
    if (e / 2u == 0u) {
      b = vec3f(end, k, 0.0);
    } else {
      b = vec3f(k, end, 0.0);
    }
  } else {
    let axis = e / 4u;
    let k = e % 4u;
    let k0 = f32(k % 2u);
    let k1 = f32(k / 2u);
    if (axis == 0u) {
      b = vec3f(end, k0, k1);
    } else if (axis == 1u) {
      b = vec3f(k0, end, k1);
    } else {
      b = vec3f(k0, k1, end);
    }
  }
  var p = mix(R.boundsMin, R.boundsMax, b);
  if (R.dimensions == 2u) {
    p.z = 0.0;
  }
  return toClip(p);
}

@fragment
fn fsBounds() -> @location(0) vec4f {
  return vec4f(R.boundsColor, 1.0);
}

// The attractor's marker: a soft glow and a faint ring at its reach (attractor.w), premultiplied.
@vertex
fn vsMarker(@builtin(vertex_index) vi: u32) -> QuadOut {
  return quadVertex(R.attractor, vi, 1.05);
}

@fragment
fn fsMarker(in: QuadOut) -> @location(0) vec4f {
  let d = length(in.quad);
  if (d > 1.05) {
    discard;
  }
  var a = 0.8 * exp(-d * d / 0.006) + 0.22 * exp(-d * d / 0.05);
  let ring = (d - 1.0) / 0.012;
  a = min(a + 0.3 * exp(-ring * ring), 1.0);
  return vec4f(R.markerColor * a, a);
}

// Trails (renderer.ts): a full-screen triangle; fsFade is subtracted from the trail after it is
// scaled by the blend constant (dst * trail - 1/255: no 8-bit residue lingers); fsTrail copies
// the trail texture (premultiplied) onto the canvas, blended "over" the background.
@vertex
fn vsFull(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
  let x = f32(vi & 1u) * 4.0 - 1.0;
  let y = f32(vi >> 1u) * 4.0 - 1.0;
  return vec4f(x, y, 0.5, 1.0);
}

@fragment
fn fsFade() -> @location(0) vec4f {
  return vec4f(1.0 / 255.0);
}

@group(0) @binding(0) var trailTexture: texture_2d<f32>;

@fragment
fn fsTrail(@builtin(position) at: vec4f) -> @location(0) vec4f {
  return textureLoad(trailTexture, vec2i(at.xy), 0);
}
