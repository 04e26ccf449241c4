#pragma once
// Stand-in for the project's own header, so the migrated case compiles on its own.
