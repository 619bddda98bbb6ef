// Original file: gridstar/v1/gridstar.proto


export interface ListMapsRequest {
}

export interface ListMapsRequest__Output {
}
