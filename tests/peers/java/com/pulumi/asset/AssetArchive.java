// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// The asset classes of pulumi/pulumi-java's com.pulumi.asset (io.pulumi.asset/AssetArchive.java in its
// first releases): AssetArchive(Map<String, AssetOrArchive>).
package com.pulumi.asset;

import java.util.Map;

public final class AssetArchive extends Archive {
    public AssetArchive(Map<String, AssetOrArchive> assets) {
        super("assets", assets);
    }
}
