// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/deployment/Deployment.java
// (getInstance, getStackName, getProjectName, isDryRun; invoke/call/registerPackage left out) and
// getOrganizationName, which pulumi-java's own l1-builtin-info program output calls
// (Deployment.getInstance().getOrganizationName()), and requirePulumiVersion (below).
package com.pulumi.deployment;

public interface Deployment {
    static DeploymentInstance getInstance() {
        throw new UnsupportedOperationException();
    }

    String getStackName();

    String getProjectName();

    String getOrganizationName();

    boolean isDryRun();

    // pulumi/pulumi-java#1979 "Add Deployment.RequirePulumiVersion": a program calls it as pulumi-java's own
    // l1-builtin-require-pulumi-version output does, `Deployment.getInstance().requirePulumiVersion(version);`
    // (a statement: its result, if any, unused)
    void requirePulumiVersion(String pulumiVersionRange);
}
