// Original file: gridstar/v1/gridstar.proto


export interface TiledFile {
  'source'?: (string);
  'data'?: (Buffer | Uint8Array | string);
}

export interface TiledFile__Output {
  'source': (string);
  'data': (Buffer);
}
