// Original file: gridstar/v1/gridstar.proto


export interface DeleteMapResponse {
}

export interface DeleteMapResponse__Output {
}
