// Keeps every area library non-empty while an area has no sources yet.
