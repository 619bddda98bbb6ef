// Original file: gridstar/v1/gridstar.proto


export interface ListWorldsRequest {
}

export interface ListWorldsRequest__Output {
}
