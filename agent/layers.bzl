"""A build-time check of a layer's direction where visibility cannot state it.

Visibility names packages, not targets: when a package must see a library for its tests
alone (//agent/cupti sees //agent/writer:writer for its test support), the package's own
library could depend on it too. no_dependency_test fails the build (analysis) when its
target reaches a forbidden target through `deps`, so the direction is kept by the build,
not by a comment.
"""

_ReachedInfo = provider(
    doc = "The targets a target reaches through deps, itself included.",
    fields = {"labels": "depset of label strings"},
)

def _reached_aspect_impl(target, ctx):
    transitive = [
        dep[_ReachedInfo].labels
        for dep in getattr(ctx.rule.attr, "deps", [])
        if _ReachedInfo in dep
    ]
    return [_ReachedInfo(labels = depset([str(target.label)], transitive = transitive))]

_reached_aspect = aspect(
    implementation = _reached_aspect_impl,
    attr_aspects = ["deps"],
)

def _no_dependency_test_impl(ctx):
    reached = {label: True for label in ctx.attr.of[_ReachedInfo].labels.to_list()}
    wrong = [str(target.label) for target in ctx.attr.on if str(target.label) in reached]
    if wrong:
        fail("%s must not depend on %s (%s)" % (
            ctx.attr.of.label,
            ", ".join(wrong),
            ctx.attr.reason or "a layer below it",
        ))

    # Nothing is left to check when the build gets here.
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, "#!/bin/sh\nexit 0\n", is_executable = True)
    return [DefaultInfo(executable = script)]

no_dependency_test = rule(
    implementation = _no_dependency_test_impl,
    doc = "Fails the build when `of` reaches any package in `on` through deps.",
    attrs = {
        "of": attr.label(mandatory = True, aspects = [_reached_aspect]),
        # Never built for the test: only their labels are compared.
        "on": attr.label_list(mandatory = True),
        "reason": attr.string(),
    },
    test = True,
)
