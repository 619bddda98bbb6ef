// Original file: gridstar/v1/gridstar.proto


export interface Cell {
  'x'?: (number);
  'y'?: (number);
}

export interface Cell__Output {
  'x': (number);
  'y': (number);
}
