// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// The asset classes of pulumi/pulumi-java's com.pulumi.asset (io.pulumi.asset in its first releases):
// FileArchive extends Archive, constructed from a String path.
package com.pulumi.asset;

public final class FileArchive extends Archive {
    public FileArchive(String path) {
        super("path", path);
    }
}
