// Original file: gridstar/v1/gridstar.proto


export interface GetWorldRequest {
  'id'?: (string);
}

export interface GetWorldRequest__Output {
  'id': (string);
}
