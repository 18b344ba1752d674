// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// The asset classes of pulumi/pulumi-java's com.pulumi.asset (io.pulumi.asset in its first releases):
// RemoteArchive extends Archive, constructed from a String uri.
package com.pulumi.asset;

public final class RemoteArchive extends Archive {
    public RemoteArchive(String uri) {
        super("uri", uri);
    }
}
