// Original file: gridstar/v1/gridstar.proto


export interface GetMapRequest {
  'id'?: (string);
  /**
   * Also return the cells as raw row-major cost bytes.
   */
  'includeCells'?: (boolean);
}

export interface GetMapRequest__Output {
  'id': (string);
  /**
   * Also return the cells as raw row-major cost bytes.
   */
  'includeCells': (boolean);
}
