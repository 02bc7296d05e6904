export interface FakeS3Object {
  body: Buffer;
  contentType: string;
  acl: string;
  etag: string;
  lastModified: Date;
  checksums: Record<string, string>;
}

export interface FakeS3 {
  url: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects(): Array<{ bucket: string; key: string; size: number; contentType: string; acl: string; checksums: Record<string, string> }>;
  object(bucket: string, key: string): FakeS3Object | undefined;
  requests: Array<{ method: string; bucket: string; key: string; signed: boolean; payload: string | null }>;
  stop(): Promise<void>;
}

export function startFakeS3(options?: { buckets?: string[] }): Promise<FakeS3>;
