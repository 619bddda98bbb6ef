// Original file: gridstar/v1/gridstar.proto


export interface DeleteMapRequest {
  'id'?: (string);
}

export interface DeleteMapRequest__Output {
  'id': (string);
}
