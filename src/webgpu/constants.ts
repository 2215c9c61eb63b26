/**
 * WebGPU's flag values (the spec's GPUBufferUsage, GPUShaderStage, GPUMapMode numbers), so the
 * simulation also runs in Node under Dawn, where those objects are not globals unless installed.
 */
export const BufferUsage = {
  MAP_READ: 0x1,
  MAP_WRITE: 0x2,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  INDEX: 0x10,
  VERTEX: 0x20,
  UNIFORM: 0x40,
  STORAGE: 0x80,
  INDIRECT: 0x100,
  QUERY_RESOLVE: 0x200,
} as const;

export const ShaderStage = { VERTEX: 0x1, FRAGMENT: 0x2, COMPUTE: 0x4 } as const;

export const MapMode = { READ: 0x1, WRITE: 0x2 } as const;
