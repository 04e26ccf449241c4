#pragma once
void launch_saxpy(int n, float a, const float* x, float* y);
