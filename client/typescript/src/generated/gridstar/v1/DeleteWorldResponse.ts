// Original file: gridstar/v1/gridstar.proto


export interface DeleteWorldResponse {
}

export interface DeleteWorldResponse__Output {
}
