// Original file: gridstar/v1/gridstar.proto


export interface DeleteWorldRequest {
  'id'?: (string);
}

export interface DeleteWorldRequest__Output {
  'id': (string);
}
