// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// The asset classes of pulumi/pulumi-java's com.pulumi.asset (io.pulumi.asset in its first releases):
// RemoteAsset extends Asset, constructed from a String uri.
package com.pulumi.asset;

public final class RemoteAsset extends Asset {
    public RemoteAsset(String uri) {
        super("uri", uri);
    }
}
