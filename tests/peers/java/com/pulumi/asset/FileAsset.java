// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// The asset classes of pulumi/pulumi-java's com.pulumi.asset (io.pulumi.asset in its first releases):
// FileAsset extends Asset, constructed from a String path.
package com.pulumi.asset;

public final class FileAsset extends Asset {
    public FileAsset(String path) {
        super("path", path);
    }
}
