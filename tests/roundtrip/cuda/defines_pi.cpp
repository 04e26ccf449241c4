// A host file that defines a math_constants.h name itself, as particle simulations do: HIP 5.2
// lacks HIP_PI_F, so the way there renames the definition, and the way back must restore it.
#include <cmath>

#define CUDART_PI_F 3.141592654f

float wrap_angle(float a) {
  while (a > CUDART_PI_F) a -= 2.0f * CUDART_PI_F;
  while (a < -CUDART_PI_F) a += 2.0f * CUDART_PI_F;
  return a;
}
